! gfortran -fstack-arrays: an automatic array of n = 4 000 000 reals (32 MB) lives on the
! stack (one frame, 8 MiB stack limit): the first store into it faults far below the stack.
module smooth_mod
  implicit none
contains
  subroutine smooth(x, n)
    integer, intent(in) :: n
    real(8), intent(inout) :: x(n)
    real(8) :: tmp(n)
    integer :: i
    tmp(1) = x(1)
    do i = 2, n
      tmp(i) = 0.5d0 * (x(i) + x(i-1))
    end do
    x = tmp
  end subroutine smooth
end module smooth_mod

program big
  use smooth_mod
  implicit none
  real(8), allocatable :: x(:)
  integer :: n
  n = 4000000
  allocate(x(n))
  x = 1d0
  call smooth(x, n)
  print *, x(n)
end program big
