; Definitions the Go wheel's tags.scm leaves out and ctags reports: an interface's methods.
(method_elem name: (field_identifier) @name) @definition.method
