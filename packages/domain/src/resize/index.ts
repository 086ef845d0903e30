// Sizing actions on a catalog model: cards, context and host resources, checked against the fleet
// and the model's plan before the catalog changes.
export { resizeModel, type ResizeChange, type ResizeFleet, type ResizeResult } from "./resize";
export { sizeAtServe, type ServeSizing } from "./serve";
