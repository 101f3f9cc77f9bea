;; The bit-code scan's hot loop (vector-scan.ts): the Hamming distance of
;; every stored code to the query's, with SIMD popcounts, 16 bytes at a time.
;; The compiled bytes live in hamming-kernel.ts; `npm run build:kernel`
;; writes them from this file and a unit test checks that they match.
(module
  (import "scan" "memory" (memory 1))
;; distances(codes, count, chunks, query, distance, histogram, kinds, allowed,
  ;; past): for each of `count` codes of `chunks` x 16 bytes stored one after
  ;; another from `codes`, its Hamming distance to the code at `query`,
  ;; written as a u16 at `distance` (one per code, in order) and counted in
  ;; the u32 histogram at `histogram` (indexed by distance, zeroed by the
  ;; caller). A code whose kind (a byte per code from `kinds`) is not a set
  ;; bit of `allowed` gets the distance `past` and is not counted.
  (func (export "distances")
    (param $codes i32) (param $count i32) (param $chunks i32)
    (param $query i32) (param $distance i32) (param $histogram i32)
    (param $kinds i32) (param $allowed i32) (param $past i32)
    (local $slot i32) (local $end i32) (local $q i32) (local $sum v128)
    (local $h i32) (local $bucket i32) (local $step i32)
    (local.set $step (i32.shl (local.get $chunks) (i32.const 4)))
    (block $done
      (loop $codes_left
        (br_if $done (i32.ge_u (local.get $slot) (local.get $count)))
        (if (i32.and (i32.shr_u (local.get $allowed) (i32.load8_u (i32.add (local.get $kinds) (local.get $slot))))
                     (i32.const 1))
          (then
            (local.set $sum (v128.const i64x2 0 0))
            (local.set $q (local.get $query))
            (local.set $end (i32.add (local.get $codes) (local.get $step)))
            ;; 16 lanes of 8 bits, each chunk's counts widened to 16-bit
            ;; lanes before adding: no lane overflows, however long the code.
            (loop $chunks_left
              (local.set $sum
                (i16x8.add (local.get $sum)
                  (i16x8.extadd_pairwise_i8x16_u
                    (i8x16.popcnt (v128.xor (v128.load (local.get $codes)) (v128.load (local.get $q)))))))
              (local.set $codes (i32.add (local.get $codes) (i32.const 16)))
              (local.set $q (i32.add (local.get $q) (i32.const 16)))
              (br_if $chunks_left (i32.lt_u (local.get $codes) (local.get $end))))
            (local.set $sum (i32x4.extadd_pairwise_i16x8_u (local.get $sum)))
            (local.set $h
              (i32.add
                (i32.add (i32x4.extract_lane 0 (local.get $sum)) (i32x4.extract_lane 1 (local.get $sum)))
                (i32.add (i32x4.extract_lane 2 (local.get $sum)) (i32x4.extract_lane 3 (local.get $sum)))))
            (i32.store16 (local.get $distance) (local.get $h))
            (local.set $bucket (i32.add (local.get $histogram) (i32.shl (local.get $h) (i32.const 2))))
            (i32.store (local.get $bucket) (i32.add (i32.load (local.get $bucket)) (i32.const 1))))
          (else
            (i32.store16 (local.get $distance) (local.get $past))
            (local.set $codes (i32.add (local.get $codes) (local.get $step)))))
        (local.set $distance (i32.add (local.get $distance) (i32.const 2)))
        (local.set $slot (i32.add (local.get $slot) (i32.const 1)))
        (br $codes_left))))
)
