#!/usr/bin/env node
'use strict';
// js-peep is now an entry point over js-nap (issue 31): the one data-driven program that plays
// every ruleset, here declaring the `peep` ruleset alone. js-peep's own engine (Peep Nap,
// written from spec/ alone in November 2026; README.md has its history) was the seed of
// js-nap's protocol code and much of its engine, which now plays Peep Nap in its place: two
// copies of one program to keep in step with the law book were one too many.
process.env.JSNAP_RULESETS = 'peep';
require('../js-nap/adapter.js');
