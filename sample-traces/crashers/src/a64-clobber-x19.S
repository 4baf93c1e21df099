/* long mix_bits(long seed): a hand-written hash step that uses the callee-saved x19 as a
 * round counter without saving it (its CFI saves only x29/x30). */
        .text
        .globl  mix_bits
        .type   mix_bits, %function
        .p2align 2
mix_bits:
        .cfi_startproc
        stp     x29, x30, [sp, #-16]!
        .cfi_def_cfa_offset 16
        .cfi_offset 29, -16
        .cfi_offset 30, -8
        mov     x29, sp
        mov     x19, #0x17                      /* BUG: x19 is callee-saved */
1:      eor     x0, x0, x0, lsl #13
        eor     x0, x0, x0, lsr #7
        sub     x19, x19, #1
        cmp     x19, #0x10
        b.hi    1b
        ldp     x29, x30, [sp], #16
        .cfi_restore 30
        .cfi_restore 29
        .cfi_def_cfa_offset 0
        ret
        .cfi_endproc
        .size   mix_bits, .-mix_bits
        .section .note.GNU-stack,"",%progbits
