// -C panic=abort: a RefCell is borrowed mutably while a shared borrow is alive;
// RefCell::borrow_mut panics ("already borrowed") and the panic aborts the process.
use std::cell::RefCell;

struct Inventory {
    items: RefCell<Vec<u32>>,
}

impl Inventory {
    #[inline(never)]
    fn restock(&self, n: u32) {
        self.items.borrow_mut().push(n);
    }

    #[inline(never)]
    fn restock_low(&self) {
        for &i in self.items.borrow().iter() {
            if i < 5 {
                self.restock(10); // borrow_mut while the loop's borrow is alive
            }
        }
    }
}

fn main() {
    let inv = Inventory { items: RefCell::new(vec![7, 3, 9]) };
    inv.restock_low();
    println!("{:?}", inv.items.borrow());
}
