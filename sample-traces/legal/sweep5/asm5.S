# Hand-written x86-64 assembly with unusual but legal conventions (issue 11, fifth pass),
# driven by asm5.c and stopped at random by sweep5.sh. Every routine keeps the SysV contract
# toward its callers (callee-saved registers restored, the return address honoured), but not
# in the compiler's usual way.
        .text

# A leaf that keeps its locals in the red zone below rsp (no sub, no push).
        .globl rz_leaf
        .type rz_leaf, @function
rz_leaf:
        .cfi_startproc
        mov %rdi, -8(%rsp)
        mov %rsi, -16(%rsp)
        xor %eax, %eax
        mov $64, %ecx
1:      mov -8(%rsp), %rdx
        imul $0x5bd1e995, %rdx, %rdx
        add %rdx, %rax
        xor -16(%rsp), %rax
        mov %rax, -8(%rsp)
        dec %ecx
        jnz 1b
        ret
        .cfi_endproc
        .size rz_leaf, .-rz_leaf

# rbp as a plain loop counter (saved and restored, with CFI, but no frame pointer).
        .globl rbp_counter
        .type rbp_counter, @function
rbp_counter:
        .cfi_startproc
        push %rbp
        .cfi_adjust_cfa_offset 8
        .cfi_rel_offset rbp, 0
        push %rbx
        .cfi_adjust_cfa_offset 8
        .cfi_rel_offset rbx, 0
        mov $300, %ebp
        xor %ebx, %ebx
1:      lea (%rbx,%rbp,2), %rbx
        ror $7, %rbx
        dec %rbp
        jnz 1b
        mov %rbx, %rax
        pop %rbx
        .cfi_adjust_cfa_offset -8
        .cfi_restore rbx
        pop %rbp
        .cfi_adjust_cfa_offset -8
        .cfi_restore rbp
        ret
        .cfi_endproc
        .size rbp_counter, .-rbp_counter

# Returns through a register instead of ret.
        .globl jmp_return
        .type jmp_return, @function
jmp_return:
        .cfi_startproc
        lea 1(%rdi), %rax
        imul %rdi, %rax
        pop %rcx
        .cfi_adjust_cfa_offset -8
        .cfi_register rip, rcx
        jmp *%rcx
        .cfi_endproc
        .size jmp_return, .-jmp_return

# Calls pr_callee with a return address pushed by hand (push + jmp instead of call): the
# return address on pr_callee's stack does not follow a call instruction.
        .globl push_return
        .type push_return, @function
push_return:
        .cfi_startproc
        sub $8, %rsp
        .cfi_adjust_cfa_offset 8
        lea 2f(%rip), %rax
        push %rax
        .cfi_adjust_cfa_offset 8
        jmp pr_callee
2:      .cfi_adjust_cfa_offset -8
        add $8, %rsp
        .cfi_adjust_cfa_offset -8
        ret
        .cfi_endproc
        .size push_return, .-push_return

        .globl pr_callee
        .type pr_callee, @function
pr_callee:
        .cfi_startproc
        mov %rdi, %rax
        mov $40, %ecx
1:      rol $5, %rax
        add %rcx, %rax
        dec %ecx
        jnz 1b
        ret
        .cfi_endproc
        .size pr_callee, .-pr_callee

# Runs a C callback on a private stack in .bss: rsp leaves the thread's stack for a while.
# CFI follows the switch (the CFA is kept in rbx).
        .globl on_private_stack
        .type on_private_stack, @function
on_private_stack:
        .cfi_startproc
        push %rbx
        .cfi_adjust_cfa_offset 8
        .cfi_rel_offset rbx, 0
        mov %rsp, %rbx
        .cfi_def_cfa_register rbx
        lea private_stack_top(%rip), %rsp
        mov %rdi, %rax
        mov %rsi, %rdi
        call *%rax
        mov %rbx, %rsp
        .cfi_def_cfa_register rsp
        pop %rbx
        .cfi_adjust_cfa_offset -8
        .cfi_restore rbx
        ret
        .cfi_endproc
        .size on_private_stack, .-on_private_stack

# Fills a buffer with a byte pattern held in r15 (0x4141…: the fill is the program's data),
# r12-r14 as pointers and counters.
        .globl fill_pattern
        .type fill_pattern, @function
fill_pattern:
        .cfi_startproc
        push %r12
        .cfi_adjust_cfa_offset 8
        .cfi_rel_offset r12, 0
        push %r13
        .cfi_adjust_cfa_offset 8
        .cfi_rel_offset r13, 0
        push %r15
        .cfi_adjust_cfa_offset 8
        .cfi_rel_offset r15, 0
        movabs $0x4141414141414141, %r15
        mov %rdi, %r12
        mov %rsi, %r13
1:      mov %r15, (%r12)
        add $8, %r12
        sub $8, %r13
        ja 1b
        pop %r15
        .cfi_adjust_cfa_offset -8
        .cfi_restore r15
        pop %r13
        .cfi_adjust_cfa_offset -8
        .cfi_restore r13
        pop %r12
        .cfi_adjust_cfa_offset -8
        .cfi_restore r12
        ret
        .cfi_endproc
        .size fill_pattern, .-fill_pattern

# No CFI at all, a classic frame-pointer prologue, and a callback into C: debuggers must
# unwind it by its prologue or its frame pointer.
        .globl nocfi_caller
        .type nocfi_caller, @function
nocfi_caller:
        push %rbp
        mov %rsp, %rbp
        push %rbx
        sub $8, %rsp
        mov %rdi, %rbx
        mov %rsi, %rdi
        call *%rbx
        add $1, %rax
        add $8, %rsp
        pop %rbx
        pop %rbp
        ret
        .size nocfi_caller, .-nocfi_caller

        .bss
        .p2align 6
private_stack:
        .zero 65536
private_stack_top:
        .section .note.GNU-stack,"",@progbits
