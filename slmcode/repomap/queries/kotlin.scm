; The Kotlin wheel ships no tags.scm: classes, interfaces, objects, functions, type aliases.
(class_declaration name: (identifier) @name) @definition.class
(object_declaration name: (identifier) @name) @definition.class
(function_declaration name: (identifier) @name) @definition.function
(type_alias (identifier) @name) @definition.type
