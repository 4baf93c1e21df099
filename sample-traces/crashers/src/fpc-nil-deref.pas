{ Free Pascal: a linked list walk reads a field through a nil pointer (the list's tail). }
program fpcnil;

type
  PItem = ^TItem;
  TItem = record
    Weight: LongInt;
    Next: PItem;
  end;

function SumWeights(Head: PItem; Count: LongInt): LongInt;
var
  P: PItem;
  I: LongInt;
begin
  SumWeights := 0;
  P := Head;
  for I := 1 to Count do
  begin
    SumWeights := SumWeights + P^.Weight;
    P := P^.Next;
  end;
end;

var
  A, B: TItem;
begin
  A.Weight := 3; A.Next := @B;
  B.Weight := 4; B.Next := nil;
  WriteLn('total ', SumWeights(@A, 3));
end.
