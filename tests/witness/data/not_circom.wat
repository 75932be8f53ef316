;; A valid WebAssembly module that is not a circom witness calculator.
(module
  (memory (export "memory") 1)
  (func (export "getVersion") (result i32) (i32.const 2)))
