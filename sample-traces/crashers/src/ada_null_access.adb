--  Ada (gnatmake -gnatp, checks suppressed): a lookup returns null for a missing key and the
--  caller reads the record through it: SIGSEGV at a NULL-based address. (With checks on,
--  GNAT would raise Constraint_Error; the debugger stops at the SIGSEGV before the runtime's
--  handler either way.)
with Ada.Text_IO;
procedure Ada_Null_Access is
   type Entry_Rec is record
      Key   : Integer;
      Count : Integer;
   end record;
   type Entry_Ptr is access all Entry_Rec;
   Table : array (1 .. 4) of Entry_Ptr := (others => null);

   function Lookup (Key : Integer) return Entry_Ptr is
   begin
      for I in Table'Range loop
         if Table (I) /= null and then Table (I).Key = Key then
            return Table (I);
         end if;
      end loop;
      return null;
   end Lookup;

   function Count_Of (Key : Integer) return Integer is
      E : constant Entry_Ptr := Lookup (Key);
   begin
      return E.Count;
   end Count_Of;
begin
   Table (1) := new Entry_Rec'(Key => 10, Count => 3);
   Ada.Text_IO.Put_Line (Integer'Image (Count_Of (10)));
   Ada.Text_IO.Put_Line (Integer'Image (Count_Of (42)));
end Ada_Null_Access;
