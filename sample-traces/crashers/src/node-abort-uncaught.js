// Run with node --abort-on-uncaught-exception: a JavaScript TypeError (a property read through
// null in JavaScript, not a native NULL dereference) is uncaught; V8 prints the error and its
// JavaScript stack and stops the process with a trap in v8::base::OS::Abort.
function total(orders) {
  return orders.reduce((n, o) => n + o.item.price, 0);
}
console.log("total", total([{ item: { price: 3 } }, { item: null }]));
