/* mix_rows as in push-slot-overrun.S, but the scratch is cleared with the right count of 2:
 * r12 and rbx are saved with push (CFI says so) and restored intact. A look-alike of
 * push-slot-overrun (same save slots, same dead frame, nothing overwritten); the crash is an
 * unrelated NULL read in the caller. */
    .text
    .globl mix_rows
    .type mix_rows, @function
mix_rows:
    .cfi_startproc
    push %rbx
    .cfi_def_cfa_offset 16
    .cfi_offset %rbx, -16
    push %r12
    .cfi_def_cfa_offset 24
    .cfi_offset %r12, -24
    sub $16, %rsp
    .cfi_def_cfa_offset 40
    mov %rdi, %r12
    mov %rsi, %rbx
    lea (%rsp), %rcx
    mov $2, %edx
1:  movq $0, (%rcx)
    add $8, %rcx
    dec %edx
    jnz 1b
    xor %eax, %eax
2:  test %rbx, %rbx
    jz 3f
    add (%r12), %rax
    add $8, %r12
    dec %rbx
    jmp 2b
3:  add $16, %rsp
    .cfi_def_cfa_offset 24
    pop %r12
    .cfi_def_cfa_offset 16
    pop %rbx
    .cfi_def_cfa_offset 8
    ret
    .cfi_endproc
    .size mix_rows, .-mix_rows
    .section .note.GNU-stack,"",@progbits
