#!/usr/bin/env node
// `npm ci` builds dist/lucie.mjs (the `prepare` script); run `npm run prepare` after editing cli/ or shared/.
import '../dist/lucie.mjs';
