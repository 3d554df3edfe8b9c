/** A vertical splitter between panes; drag or use the arrow keys to resize. */
import type { KeyboardEvent, PointerEvent } from 'react';

/** Reports the new width of the pane it controls (`side` says which way a drag grows it). */
export function Splitter({
  width,
  side,
  min,
  max,
  label,
  onResize,
}: {
  width: number;
  side: 'left' | 'right';
  min: number;
  max: number;
  label: string;
  onResize: (width: number) => void;
}) {
  const clamp = (w: number) => Math.max(min, Math.min(max, Math.round(w)));
  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    const startX = event.clientX;
    const startWidth = width;
    const element = event.currentTarget;
    element.setPointerCapture(event.pointerId);
    const move = (e: globalThis.PointerEvent) =>
      onResize(clamp(startWidth + (side === 'left' ? e.clientX - startX : startX - e.clientX)));
    const up = () => {
      element.removeEventListener('pointermove', move);
      element.removeEventListener('pointerup', up);
    };
    element.addEventListener('pointermove', move);
    element.addEventListener('pointerup', up);
  };
  const onKeyDown = (event: KeyboardEvent) => {
    const step = event.shiftKey ? 40 : 10;
    if (event.key === 'ArrowLeft') onResize(clamp(width + (side === 'left' ? -step : step)));
    else if (event.key === 'ArrowRight') onResize(clamp(width + (side === 'left' ? step : -step)));
    else return;
    event.preventDefault();
  };
  return (
    <div
      className="splitter"
      role="separator"
      aria-orientation="vertical"
      aria-label={label}
      aria-valuenow={width}
      aria-valuemin={min}
      aria-valuemax={max}
      tabIndex={0}
      onPointerDown={onPointerDown}
      onKeyDown={onKeyDown}
    />
  );
}
