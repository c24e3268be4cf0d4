#!/usr/bin/env node
import { run } from '../dist/main.js';

run(process.argv.slice(2));
