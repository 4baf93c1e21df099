// A singly linked list of Box<Node> 100 000 long dropped at the end of main: the compiler's
// drop glue recurses once per node and overflows the main thread's stack (ulimit -s 256):
// "thread 'main' has overflowed its stack", SIGABRT.
struct Node {
    val: u64,
    next: Option<Box<Node>>,
}

#[inline(never)]
fn build(n: u64) -> Option<Box<Node>> {
    let mut head = None;
    for i in 0..n {
        head = Some(Box::new(Node { val: i, next: head }));
    }
    head
}

fn main() {
    let list = build(100_000);
    println!("{}", list.as_ref().map_or(0, |n| n.val));
    drop(list);
    println!("dropped");
}
