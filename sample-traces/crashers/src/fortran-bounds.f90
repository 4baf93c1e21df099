! gfortran -O1 -g: a subroutine indexes an array through a lower bound it was never given;
! the allocatable array is not allocated, so the access reads through its NULL base address.
module grid
  implicit none
  real, allocatable :: cells(:)
contains
  subroutine smooth(n, total)
    integer, intent(in) :: n
    real, intent(out) :: total
    integer :: i
    total = 0.0
    do i = 1, n
      total = total + cells(i) * 0.5
    end do
  end subroutine smooth
end module grid

program main
  use grid
  implicit none
  real :: t
  call smooth(4, t)
  print *, t
end program main
