// What the reconciler does before planning, for the placement benchmark (bench/placement): the
// live registry, the node records made from it every pass and the records kept between passes.
export { KeptNodes } from "./kept-nodes";
export { reconcileNodes } from "./placement-nodes";
export { FleetRegistry } from "./registry";
