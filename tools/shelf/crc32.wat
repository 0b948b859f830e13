;; crc32: the CRC-32 (IEEE 802.3, as in zip, gzip and PNG) of its input, as
;; 8 lowercase hex digits — a quick check that a file is what you expect.
;; Imports only env.output.
(module
  (import "env" "output" (func $output (param i32 i32)))
  (memory (export "memory") 1)
  (global $heap (mut i32) (i32.const 4096))
  (data (i32.const 64) "0123456789abcdef")

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

  (func (export "run") (param $ptr i32) (param $len i32)
    (local $p i32) (local $end i32) (local $crc i32) (local $bit i32) (local $i i32)
    (local.set $crc (i32.const -1))
    (local.set $p (local.get $ptr))
    (local.set $end (i32.add (local.get $ptr) (local.get $len)))
    (block $done (loop $bytes
      (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
      (local.set $crc (i32.xor (local.get $crc) (i32.load8_u (local.get $p))))
      (local.set $bit (i32.const 8))
      (loop $bits
        ;; crc = (crc >> 1) ^ (0xEDB88320 & -(crc & 1))
        (local.set $crc
          (i32.xor
            (i32.shr_u (local.get $crc) (i32.const 1))
            (i32.and (i32.const 0xEDB88320)
              (i32.sub (i32.const 0) (i32.and (local.get $crc) (i32.const 1))))))
        (local.set $bit (i32.sub (local.get $bit) (i32.const 1)))
        (br_if $bits (local.get $bit)))
      (local.set $p (i32.add (local.get $p) (i32.const 1)))
      (br $bytes)))
    (local.set $crc (i32.xor (local.get $crc) (i32.const -1)))
    ;; Eight hex digits, most significant first, at 0..8.
    (loop $hex
      (i32.store8 (local.get $i)
        (i32.load8_u (i32.add (i32.const 64)
          (i32.and (i32.shr_u (local.get $crc) (i32.sub (i32.const 28) (i32.mul (local.get $i) (i32.const 4)))) (i32.const 15)))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $hex (i32.lt_u (local.get $i) (i32.const 8))))
    (call $output (i32.const 0) (i32.const 8)))
)
