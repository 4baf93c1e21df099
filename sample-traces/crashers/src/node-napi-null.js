// Loads the addon with process.dlopen and decodes frames of kinds 1, 2 and 7.
const m = { exports: {} };
process.dlopen(m, require("path").resolve("libnode-napi-null.node"));
function headerBytes(kinds) {
  return kinds.reduce((n, k) => n + m.exports.decodeFrame(k), 0);
}
console.log("header bytes", headerBytes([1, 2, 7]));
