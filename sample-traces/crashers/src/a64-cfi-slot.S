/* long scale_row(long *row, long n): saves x19/x20 correctly (with CFI), then clears its
 * 4-word scratch array with an off-by-one bound (i <= 4), which zeroes the saved x19. */
        .text
        .globl  scale_row
        .type   scale_row, %function
        .p2align 2
scale_row:
        .cfi_startproc
        stp     x29, x30, [sp, #-64]!
        .cfi_def_cfa_offset 64
        .cfi_offset 29, -64
        .cfi_offset 30, -56
        mov     x29, sp
        stp     x19, x20, [sp, #48]
        .cfi_offset 19, -16
        .cfi_offset 20, -8
        mov     x19, x0                         /* row */
        mov     x20, x1                         /* n */
        add     x2, sp, #16                     /* scratch[4] at sp+16..sp+47 */
        mov     x3, #0
1:      str     xzr, [x2, x3, lsl #3]
        add     x3, x3, #1
        cmp     x3, #4
        b.le    1b                              /* BUG: i <= 4 clears scratch[4] = saved x19 */
        mov     x0, #0
        mov     x3, #0
2:      ldr     x4, [x19, x3, lsl #3]
        add     x0, x0, x4, lsl #1
        add     x3, x3, #1
        cmp     x3, x20
        b.lt    2b
        ldp     x19, x20, [sp, #48]
        ldp     x29, x30, [sp], #64
        .cfi_restore 19
        .cfi_restore 20
        .cfi_restore 30
        .cfi_restore 29
        .cfi_def_cfa_offset 0
        ret
        .cfi_endproc
        .size   scale_row, .-scale_row
        .section .note.GNU-stack,"",%progbits
