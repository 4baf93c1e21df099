const m = { exports: {} };
process.dlopen(m, require("path").resolve("libnode-napi-fatal.node"));
function connect() {
  return m.exports.takeSlot();
}
console.log("slot", connect());
