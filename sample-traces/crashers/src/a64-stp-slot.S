/* long window_sum(long *v, long n): saves x21/x22 with stp (CFI: x21 at CFA-16), clears its
 * 2-word scratch array and sums v[0..n). With -DGOOD_BOUND the clear stops at scratch[1]; without
 * it the off-by-one bound (i <= 2) clears scratch[2], which is the saved x21, so the ldp
 * restores x21 = 0 into the caller. */
        .text
        .globl  window_sum
        .type   window_sum, %function
        .p2align 2
window_sum:
        .cfi_startproc
        stp     x29, x30, [sp, #-48]!
        .cfi_def_cfa_offset 48
        .cfi_offset 29, -48
        .cfi_offset 30, -40
        mov     x29, sp
        stp     x21, x22, [sp, #32]
        .cfi_offset 21, -16
        .cfi_offset 22, -8
        mov     x21, x0                         /* v */
        mov     x22, x1                         /* n */
        add     x2, sp, #16                     /* scratch[2] at sp+16..sp+31 */
        mov     x3, #0
1:      str     xzr, [x2, x3, lsl #3]
        add     x3, x3, #1
        cmp     x3, #2
#ifdef GOOD_BOUND
        b.lt    1b
#else
        b.le    1b                              /* BUG: i <= 2 clears the saved x21 */
#endif
        mov     x0, #0
        mov     x3, #0
2:      ldr     x4, [x21, x3, lsl #3]
        add     x0, x0, x4
        add     x3, x3, #1
        cmp     x3, x22
        b.lt    2b
        ldp     x21, x22, [sp, #32]
        ldp     x29, x30, [sp], #48
        .cfi_restore 21
        .cfi_restore 22
        .cfi_restore 30
        .cfi_restore 29
        .cfi_def_cfa_offset 0
        ret
        .cfi_endproc
        .size   window_sum, .-window_sum
        .section .note.GNU-stack,"",%progbits
