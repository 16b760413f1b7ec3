; Definitions the JavaScript wheel's tags.scm leaves out and ctags reports: private `#methods`.
(method_definition name: (private_property_identifier) @name) @definition.method

; A class's constructor (the wheel's query skips it on purpose): where its instances' state is set up.
(method_definition name: (property_identifier) @name (#eq? @name "constructor")) @definition.method

; A module-level object bound to a name, `const COLORS = { ... }` (ctags lists it as a class): a module's tables
; and option maps. Only at the top of the module, as a statement or exported: a local object is no landmark.
(program (lexical_declaration (variable_declarator name: (identifier) @name value: (object))) @definition.object)
(program (variable_declaration (variable_declarator name: (identifier) @name value: (object))) @definition.object)
(program (export_statement declaration: (lexical_declaration
  (variable_declarator name: (identifier) @name value: (object))) @definition.object))
; An object-valued entry of such a module-level object, `const LEVELS = { warn: { ... } }`: a table's rows.
(program (lexical_declaration (variable_declarator value: (object
  (pair key: (property_identifier) @name value: (object)) @definition.object))))
; A table a CommonJS module exports by name, `exports.LIMITS = { ... }` or `module.exports.LIMITS = { ... }`: as
; `const LIMITS = { ... }` above. Not `module.exports = { a, b }`, a list of names defined elsewhere in the file
; (ctags lists one such in 18 of npm's lib as a class named exports), nor `app.config = {}`, another module's.
(program (expression_statement (assignment_expression
  left: (member_expression object: (_) @_owner property: (property_identifier) @name)
  right: (object)) @definition.object)
  (#match? @_owner "^(exports|module[.]exports)$"))
