; Definitions the TypeScript wheel's tags.scm leaves out and ctags reports.
(enum_declaration name: (identifier) @name) @definition.enum
(type_alias_declaration name: (type_identifier) @name) @definition.type
; A class field holding a function, `onClick = () => { ... }`: a method in all but syntax.
(public_field_definition name: (property_identifier) @name value: [(arrow_function) (function_expression)])
  @definition.method
