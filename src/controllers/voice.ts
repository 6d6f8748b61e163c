/**
 * The Web Speech API's two features, reading replies aloud and dictation, in one chunk loaded at the
 * first need of either (one file weighs less than two, and a site that reads aloud often dictates).
 */
export { DictationController } from './dictation-controller.js';
export { SpeechController } from './speech-controller.js';
