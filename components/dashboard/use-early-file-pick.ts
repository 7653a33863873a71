"use client";
import { type RefObject, useEffect, useRef } from "react";

/**
 * A file input is in the server-rendered page before React listens to it: files chosen then fire their change
 * event with nobody listening. At mount this hands such files to `onFiles` once and clears the input, as the
 * input's own onChange does for later choices.
 */
export function useEarlyFilePick(input: RefObject<HTMLInputElement | null>, onFiles: (files: File[]) => void): void {
  const handle = useRef(onFiles);
  handle.current = onFiles;
  useEffect(() => {
    const element = input.current;
    if (!element?.files?.length) return;
    const files = [...element.files];
    element.value = "";
    handle.current(files);
  }, [input]);
}
