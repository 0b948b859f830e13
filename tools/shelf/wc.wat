;; wc: counts the lines, words and bytes of its input, like `wc`.
;; Imports only env.output. Output: {"lines":L,"words":W,"bytes":B}
(module
  (import "env" "output" (func $output (param i32 i32)))
  (memory (export "memory") 1)
  (global $heap (mut i32) (i32.const 4096))
  ;; 0..64: the output being built.
  (data (i32.const 100) "{\"lines\":")
  (data (i32.const 110) ",\"words\":")
  (data (i32.const 120) ",\"bytes\":")

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

  ;; Copies [src, src+len) to dst; returns dst+len.
  (func $copy (param $dst i32) (param $src i32) (param $len i32) (result i32)
    (memory.copy (local.get $dst) (local.get $src) (local.get $len))
    (i32.add (local.get $dst) (local.get $len)))

  ;; Writes the decimal digits of n at dst; returns the end.
  (func $decimal (param $dst i32) (param $n i32) (result i32)
    (local $digits i32) (local $m i32) (local $end i32)
    (local.set $m (local.get $n))
    (local.set $digits (i32.const 1))
    (block $done (loop $count
      (br_if $done (i32.lt_u (local.get $m) (i32.const 10)))
      (local.set $m (i32.div_u (local.get $m) (i32.const 10)))
      (local.set $digits (i32.add (local.get $digits) (i32.const 1)))
      (br $count)))
    (local.set $end (i32.add (local.get $dst) (local.get $digits)))
    (local.set $m (local.get $end))
    (loop $write
      (local.set $m (i32.sub (local.get $m) (i32.const 1)))
      (i32.store8 (local.get $m) (i32.add (i32.const 48) (i32.rem_u (local.get $n) (i32.const 10))))
      (local.set $n (i32.div_u (local.get $n) (i32.const 10)))
      (br_if $write (i32.gt_u (local.get $m) (local.get $dst))))
    (local.get $end))

  ;; ASCII whitespace: space, \t, \n, \v, \f, \r.
  (func $space (param $c i32) (result i32)
    (i32.or (i32.eq (local.get $c) (i32.const 32))
      (i32.and (i32.ge_u (local.get $c) (i32.const 9)) (i32.le_u (local.get $c) (i32.const 13)))))

  (func (export "run") (param $ptr i32) (param $len i32)
    (local $p i32) (local $end i32) (local $c i32)
    (local $lines i32) (local $words i32) (local $inWord i32) (local $out i32)
    (local.set $p (local.get $ptr))
    (local.set $end (i32.add (local.get $ptr) (local.get $len)))
    (block $done (loop $scan
      (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
      (local.set $c (i32.load8_u (local.get $p)))
      (if (i32.eq (local.get $c) (i32.const 10))
        (then (local.set $lines (i32.add (local.get $lines) (i32.const 1)))))
      (if (call $space (local.get $c))
        (then (local.set $inWord (i32.const 0)))
        (else
          (if (i32.eqz (local.get $inWord))
            (then (local.set $words (i32.add (local.get $words) (i32.const 1)))))
          (local.set $inWord (i32.const 1))))
      (local.set $p (i32.add (local.get $p) (i32.const 1)))
      (br $scan)))
    (local.set $out (call $copy (i32.const 0) (i32.const 100) (i32.const 9)))
    (local.set $out (call $decimal (local.get $out) (local.get $lines)))
    (local.set $out (call $copy (local.get $out) (i32.const 110) (i32.const 9)))
    (local.set $out (call $decimal (local.get $out) (local.get $words)))
    (local.set $out (call $copy (local.get $out) (i32.const 120) (i32.const 9)))
    (local.set $out (call $decimal (local.get $out) (local.get $len)))
    (i32.store8 (local.get $out) (i32.const 125))
    (call $output (i32.const 0) (i32.add (local.get $out) (i32.const 1))))
)
