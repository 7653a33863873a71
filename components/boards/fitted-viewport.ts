"use client";
import { getViewportForBounds, type Viewport } from "@xyflow/react";
import { type RefObject, useLayoutEffect, useState } from "react";
import type { ItemNode } from "./board-nodes";

/** The padding React Flow's fitView uses by default (a tenth of the canvas). */
const PADDING = 0.1;

/**
 * The viewport that fits all the board's items into the canvas, worked out from the canvas's size before
 * the first paint. The canvas mounts React Flow only then, with this as its `defaultViewport`: it renders
 * the items in view at the zoom the reader sees, instead of first rendering every item at zoom 1 (React
 * Flow's `fitView` waits for the nodes to be measured) and then throwing most of that DOM away. Null on the
 * server and until the canvas is laid out.
 */
export function useFittedViewport(canvas: RefObject<HTMLElement | null>, nodes: ItemNode[], zoom: { min: number; max: number }): Viewport | null {
  const [viewport, setViewport] = useState<Viewport | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the first fit only; later changes keep the reader's viewport
  useLayoutEffect(() => {
    const box = canvas.current?.getBoundingClientRect();
    if (!box) return;
    setViewport(fitNodes(nodes, box.width, box.height, zoom));
  }, []);
  return viewport;
}

export function fitNodes(nodes: ItemNode[], width: number, height: number, zoom: { min: number; max: number }): Viewport {
  if (!nodes.length || !width || !height) return { x: 0, y: 0, zoom: 1 };
  let left = Infinity;
  let top = Infinity;
  let right = -Infinity;
  let bottom = -Infinity;
  for (const n of nodes) {
    left = Math.min(left, n.position.x);
    top = Math.min(top, n.position.y);
    right = Math.max(right, n.position.x + (n.width ?? 0));
    bottom = Math.max(bottom, n.position.y + (n.height ?? 0));
  }
  const bounds = { x: left, y: top, width: Math.max(1, right - left), height: Math.max(1, bottom - top) };
  return getViewportForBounds(bounds, width, height, zoom.min, zoom.max, PADDING);
}
