;; Every export circom's calculator has, and a start function that never
;; returns (an empty loop): opening it must stop at the time limit, in the
;; library, the CLI (start.sh), g16d (tests/daemon/start_timeout.sh) and
;; Node.js (bindings/node/test/start.test.js, which holds this text too).
(module
  (import "runtime" "exceptionHandler" (func (param i32)))
  (import "runtime" "printErrorMessage" (func))
  (import "runtime" "writeBufferMessage" (func))
  (import "runtime" "showSharedRWMemory" (func))
  (memory (export "memory") 1)
  (func $start (loop $l (br $l)))
  (start $start)
  (func (export "getVersion") (result i32) (i32.const 2))
  (func (export "getMinorVersion") (result i32) (i32.const 0))
  (func (export "getPatchVersion") (result i32) (i32.const 0))
  (func (export "getFieldNumLen32") (result i32) (i32.const 8))
  (func (export "getRawPrime"))
  (func (export "readSharedRWMemory") (param i32) (result i32) (i32.const 1))
  (func (export "writeSharedRWMemory") (param i32 i32))
  (func (export "init") (param i32))
  (func (export "getInputSignalSize") (param i32 i32) (result i32) (i32.const 0))
  (func (export "setInputSignal") (param i32 i32 i32))
  (func (export "getInputSize") (result i32) (i32.const 0))
  (func (export "getWitnessSize") (result i32) (i32.const 1))
  (func (export "getWitness") (param i32))
  (func (export "getMessageChar") (result i32) (i32.const 0)))
