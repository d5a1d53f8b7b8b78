/**
 * What help, usage and problem views read of the catalog. The catalog (src/operations/) sits
 * above the rendering layer and hands its entries in; these are the fields the views use, and
 * the catalog's own types have them.
 */
export {};
//# sourceMappingURL=catalog-shape.js.map