/** The closed launcher's preview and teaser, loaded as a chunk of their own when first needed. */
export { NudgeController } from '../controllers/nudge-controller.js';
export { renderNudge } from '../views/nudge.js';
