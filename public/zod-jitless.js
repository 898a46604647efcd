// zod parses without compiling code: the Content-Security-Policy allows no eval, and zod's probe
// for it (a caught `new Function` as each object schema is built) is still reported as a
// violation. zod reads this global when its module first runs; this deferred classic script
// runs before the page's module scripts (app/root.tsx), whichever of them brings zod.
globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig || {}, {
  jitless: true,
});
