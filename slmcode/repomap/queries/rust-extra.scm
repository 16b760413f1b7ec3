; Definitions the Rust wheel's tags.scm leaves out and ctags reports: a trait's method signatures,
(function_signature_item name: (identifier) @name) @definition.method
; and associated types, in traits and in impls.
(associated_type name: (type_identifier) @name) @definition.type
