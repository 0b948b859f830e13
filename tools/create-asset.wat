;; create-asset: the one tool of e1-m0. The host hands it exactly two imports,
;; writeFile and note; it has no fetch, no eval, nothing else.
;;
;; ABI (shared by every Voicebox tool): export `memory`, `alloc(len) -> ptr`
;; and `run(ptr, len)`. The host allocs, copies the input in, calls run.
;; Input here: "<kind>\n<path>\n<body>", where <path> is the path the host
;; decided on. The tool asks to write <body> to <path> and leaves a note;
;; writeFile only records the request — the host checks the path again and
;; writes the file itself.
(module
  (import "env" "writeFile" (func $writeFile (param i32 i32 i32 i32)))
  (import "env" "note" (func $note (param i32 i32)))
  (memory (export "memory") 1)
  (data (i32.const 16) "asset created by the create-asset tool")
  (global $heap (mut i32) (i32.const 1024))

  ;; A bump allocator that grows memory as needed (the host caps growth).
  (func (export "alloc") (param $len i32) (result i32)
    (local $ptr i32) (local $end i32)
    (local.set $ptr (global.get $heap))
    (local.set $end (i32.add (local.get $ptr) (local.get $len)))
    (if (i32.gt_u (local.get $end) (i32.mul (memory.size) (i32.const 65536)))
      (then
        (if (i32.lt_s
              (memory.grow (i32.add (i32.shr_u (i32.sub (local.get $end) (i32.mul (memory.size) (i32.const 65536))) (i32.const 16)) (i32.const 1)))
              (i32.const 0))
          (then unreachable))))
    (global.set $heap (local.get $end))
    (local.get $ptr))

  ;; The offset of the first newline in [from, end), or trap if there is none.
  (func $newline (param $from i32) (param $end i32) (result i32)
    (block $found
      (loop $scan
        (br_if $found (i32.ge_u (local.get $from) (local.get $end)))
        (if (i32.eq (i32.load8_u (local.get $from)) (i32.const 10))
          (then (return (local.get $from))))
        (local.set $from (i32.add (local.get $from) (i32.const 1)))
        (br $scan)))
    unreachable)

  (func (export "run") (param $ptr i32) (param $len i32)
    (local $end i32) (local $path i32) (local $pathEnd i32)
    (local.set $end (i32.add (local.get $ptr) (local.get $len)))
    (local.set $path (i32.add (call $newline (local.get $ptr) (local.get $end)) (i32.const 1)))
    (local.set $pathEnd (call $newline (local.get $path) (local.get $end)))
    (call $writeFile
      (local.get $path)
      (i32.sub (local.get $pathEnd) (local.get $path))
      (i32.add (local.get $pathEnd) (i32.const 1))
      (i32.sub (local.get $end) (i32.add (local.get $pathEnd) (i32.const 1))))
    (call $note (i32.const 16) (i32.const 38)))
)
