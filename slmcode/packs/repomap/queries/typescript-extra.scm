; Definitions the TypeScript wheel's tags.scm leaves out and ctags reports.
(enum_declaration name: (identifier) @name) @definition.enum
(type_alias_declaration name: (type_identifier) @name) @definition.type
