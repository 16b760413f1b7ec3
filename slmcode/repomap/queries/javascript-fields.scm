; A class field holding a function, `onClick = () => { ... }` (a React handler): a method in all but syntax.
; JavaScript's grammar calls it field_definition; TypeScript's public_field_definition (typescript-extra.scm).
(field_definition property: (property_identifier) @name value: [(arrow_function) (function_expression)])
  @definition.method
