/**
 * `everyValue<Tier>()([...])`: the list, checked at compile time to name every value of its
 * union type, so the migration's CHECK constraints (written from these lists) cannot miss one.
 */
export const everyValue =
  <T>() =>
  <const L extends readonly T[]>(list: [Exclude<T, L[number]>] extends [never] ? L : never): L =>
    list;
