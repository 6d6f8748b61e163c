import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { isUuid, newId } from '../conversation/ids.js';
import {
  forStorage, isConversation, isExpired, newConversation, settleInterrupted,
  type ChatMessage, type Conversation, type UserMessage,
} from '../conversation/transcript.js';
import { createStore, defaultBackingStorage, type Store } from '../storage/store.js';

export interface ConversationControllerOptions {
  /** Storage namespace; widgets with different namespaces keep separate identities and transcripts. */
  namespace: () => string;
  /** Minutes of inactivity after which a stored conversation is archived (0: never). */
  sessionTimeout: () => number;
  /** The visitor-facing reason shown on a message a reload interrupted. */
  interruptedError: () => string;
  storage?: () => Storage | undefined;
  now?: () => number;
}

const isBoolean = (value: unknown): value is boolean => typeof value === 'boolean';

/**
 * Owns the visitor's identity (a UUID kept in storage) and the transcript, persisted after each
 * change so a reload restores the conversation instead of greeting again.
 */
export class ConversationController implements ReactiveController {
  senderId = '';
  conversation: Conversation = newConversation(0);
  private store?: Store;
  private loadedNamespace?: string;
  private readonly options: ConversationControllerOptions;
  private readonly now: () => number;

  constructor(host: ReactiveControllerHost, options: ConversationControllerOptions) {
    this.options = options;
    this.now = options.now ?? Date.now;
    host.addController(this);
  }

  // Storage is first touched here, not at import or construction time.
  hostConnected() {
    this.load();
  }

  hostDisconnected() {
    this.flush();
  }

  /** (Re)reads identity and transcript when the namespace changed; returns whether it did. */
  load(): boolean {
    const namespace = this.options.namespace();
    if (namespace === this.loadedNamespace) return false;
    this.loadedNamespace = namespace;
    this.store = createStore(namespace, this.options.storage ?? defaultBackingStorage);
    this.senderId = this.store.get('sender', isUuid) ?? newId();
    this.store.set('sender', this.senderId);
    const stored = this.store.get('conversation', isConversation);
    this.conversation = stored ? settleInterrupted(stored, this.options.interruptedError()) : newConversation(this.now());
    this.expireIfIdle();
    return true;
  }

  /** Archives an idle conversation; returns whether it did (the caller then greets again). */
  expireIfIdle(): boolean {
    const { conversation } = this;
    if (!conversation.greeted || !isExpired(conversation, this.options.sessionTimeout(), this.now())) return false;
    this.archive();
    return true;
  }

  /** Keeps the finished conversation (the last one only) and starts an empty one. */
  archive() {
    if (this.conversation.messages.length) this.store?.set('archive', forStorage(this.conversation));
    this.conversation = newConversation(this.now());
    this.save();
  }

  get archived(): Conversation | undefined {
    return this.store?.get('archive', isConversation);
  }

  get muted(): boolean {
    return this.store?.get('muted', isBoolean) ?? false;
  }

  set muted(value: boolean) {
    this.store?.set('muted', value);
  }

  add(...messages: ChatMessage[]) {
    this.conversation = { ...this.conversation, messages: [...this.conversation.messages, ...messages] };
    this.save();
  }

  updateUserMessage(id: string, patch: Partial<Pick<UserMessage, 'status' | 'error'>>): UserMessage | undefined {
    let updated: UserMessage | undefined;
    const messages = this.conversation.messages.map((m) => {
      if (m.kind !== 'user' || m.id !== id) return m;
      updated = { ...m, ...patch };
      if (patch.error === undefined) delete updated.error;
      return updated;
    });
    if (updated) {
      this.conversation = { ...this.conversation, messages };
      this.save();
    }
    return updated;
  }

  remove(id: string) {
    this.conversation = { ...this.conversation, messages: this.conversation.messages.filter((m) => m.id !== id) };
    this.save();
  }

  markGreeted() {
    this.conversation = { ...this.conversation, greeted: true };
    this.save();
  }

  private savePending = false;

  /**
   * Changes made in one task (a reply's status update and its messages) are written once, at the
   * end of the task: serialising the transcript is the costly part of adding a message.
   */
  private save() {
    this.conversation = { ...this.conversation, updatedAt: this.now() };
    if (this.savePending) return;
    this.savePending = true;
    queueMicrotask(() => this.flush());
  }

  private flush() {
    if (!this.savePending) return;
    this.savePending = false;
    this.store?.set('conversation', forStorage(this.conversation));
  }
}
