/**
 * The launcher's label before the rest of the widget has loaded (it brings every string): the
 * same words as `openChat` in src/i18n/strings.ts, which a test keeps in step.
 */
const OPEN_CHAT: Record<string, string> = { en: 'Open chat', el: 'Άνοιγμα συνομιλίας', de: 'Chat öffnen' };

export const openChatLabel = (language: string | undefined) =>
  OPEN_CHAT[(language ?? '').trim().toLowerCase().split(/[-_]/)[0]] ?? OPEN_CHAT.en;
