/* fold_bytes (AArch64): saves x29/x30 and x19-x28 with stp (CFI for each), writes x19-x28,
 * and returns after restoring only x29/x30: `add sp, sp, #96` drops the other saved copies
 * (the bug: the ldp restores were forgotten). */
    .text
    .globl fold_bytes
    .type fold_bytes, @function
fold_bytes:
    .cfi_startproc
    stp x29, x30, [sp, #-96]!
    .cfi_def_cfa_offset 96
    .cfi_offset 29, -96
    .cfi_offset 30, -88
    stp x19, x20, [sp, #16]
    .cfi_offset 19, -80
    .cfi_offset 20, -72
    stp x21, x22, [sp, #32]
    .cfi_offset 21, -64
    .cfi_offset 22, -56
    stp x23, x24, [sp, #48]
    .cfi_offset 23, -48
    .cfi_offset 24, -40
    stp x25, x26, [sp, #64]
    .cfi_offset 25, -32
    .cfi_offset 26, -24
    stp x27, x28, [sp, #80]
    .cfi_offset 27, -16
    .cfi_offset 28, -8
    mov x19, #0x31
    mov x20, #0x32
    mov x21, #0x33
    mov x22, #0x34
    mov x23, #0x35
    mov x24, #0x36
    mov x25, #0x37
    mov x26, #0x38
    mov x27, #0x39
    mov x28, #0x3a
    mov x2, #0
1:  cbz x1, 2f
    ldrb w3, [x0], #1
    add x2, x2, x3
    sub x1, x1, #1
    b 1b
2:  mov x0, x2
    ldp x29, x30, [sp]
    add sp, sp, #96            /* BUG: x19-x28 are not restored from their slots */
    .cfi_restore 29
    .cfi_restore 30
    .cfi_def_cfa_offset 0
    ret
    .cfi_endproc
    .size fold_bytes, .-fold_bytes
    .section .note.GNU-stack,"",@progbits
