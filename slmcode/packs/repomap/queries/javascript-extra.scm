; Definitions the JavaScript wheel's tags.scm leaves out and ctags reports: private `#methods`.
(method_definition name: (private_property_identifier) @name) @definition.method
