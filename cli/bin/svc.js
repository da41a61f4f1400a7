#!/usr/bin/env node
'use strict';
// Built by `npm run build:cli` (run from `prepare`, so `npm ci` leaves a working `svc`).
require('../dist/src/main.js').main(process.argv);
