/* checksum_block: hand-written assembly that uses r12 (callee-saved in the SysV ABI) as
 * scratch and never saves or restores it. Its CFI describes no r12 save. */
    .text
    .globl checksum_block
    .type checksum_block, @function
checksum_block:
    .cfi_startproc
    xor %eax, %eax
    mov $0x10, %r12d            /* clobbers the caller's r12 */
1:  test %rsi, %rsi
    jz 2f
    movzbl (%rdi), %ecx
    add %rcx, %rax
    inc %rdi
    dec %rsi
    add $1, %r12
    jmp 1b
2:  ret
    .cfi_endproc
    .size checksum_block, .-checksum_block
    .section .note.GNU-stack,"",@progbits
