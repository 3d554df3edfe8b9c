/**
 * happy-dom has no 2D canvas: getContext('2d') is null and Path2D is missing, and uPlot, which draws the
 * traffic charts, throws on both. These stand-ins accept every call and assignment and draw nothing, so
 * components with charts can mount in unit tests (the charts themselves are checked in Chromium, e2e).
 */
function inert<T extends object>(target: T): T {
  return new Proxy(target, {
    get(object, property): unknown {
      if (property in object) return Reflect.get(object, property);
      if (property === 'measureText') return () => ({ width: 0 });
      return () => undefined;
    },
  });
}

class InertPath2D {
  constructor() {
    return inert(this);
  }
}

/** Makes every canvas of the test's document answer getContext('2d') with an inert context. */
export function installInertCanvas(): void {
  const context = inert({});
  HTMLCanvasElement.prototype.getContext = function getContext(kind: string) {
    return kind === '2d' ? context : null;
  } as HTMLCanvasElement['getContext'];
  const scope = globalThis as { Path2D?: unknown };
  scope.Path2D ??= InertPath2D;
}
