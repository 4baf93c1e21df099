/* scale_all: saves rbx with push (CFI says so), but then stores the loop counter (0 at the
 * end) into the saved slot by mistake, so the pop "restores" rbx = 0. Only the CFI rule for rbx (saved
 * at CFA-16) shows where the caller's value should have come from. */
    .text
    .globl scale_all
    .type scale_all, @function
scale_all:
    .cfi_startproc
    push %rbx
    .cfi_def_cfa_offset 16
    .cfi_offset %rbx, -16
    mov %rdi, %rbx
    xor %eax, %eax
1:  test %rsi, %rsi
    jz 2f
    mov (%rbx), %rcx
    add %rcx, %rcx
    mov %rcx, (%rbx)
    add %rcx, %rax
    add $8, %rbx
    dec %rsi
    jmp 1b
2:  mov %rsi, (%rsp)           /* bug: overwrites the saved rbx */
    pop %rbx
    .cfi_def_cfa_offset 8
    ret
    .cfi_endproc
    .size scale_all, .-scale_all
    .section .note.GNU-stack,"",@progbits
