'use strict';
// Jest's node environment gives each test file its own realm, so a Float32Array made by a
// native addon (onnxruntime-node's outputs) fails `instanceof Float32Array` in the test's code
// and in onnxruntime-common itself. Test files that run a native model opt in with
//   /** @jest-environment ./test/support/native-typed-arrays-environment.js */
const { TestEnvironment } = require('jest-environment-node');

const SHARED = [
  'ArrayBuffer',
  'Int8Array',
  'Uint8Array',
  'Uint8ClampedArray',
  'Int16Array',
  'Uint16Array',
  'Int32Array',
  'Uint32Array',
  'Float32Array',
  'Float64Array',
  'BigInt64Array',
  'BigUint64Array',
];

class NativeTypedArraysEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    for (const name of SHARED) this.global[name] = globalThis[name];
  }
}

module.exports = NativeTypedArraysEnvironment;
