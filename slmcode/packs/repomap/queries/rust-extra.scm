; Definitions the Rust wheel's tags.scm leaves out and ctags reports: a trait's method signatures.
(function_signature_item name: (identifier) @name) @definition.method
