/**
 * A creative's WebP thumbnail (a video's poster frame): the browser picks the 320 or 960 px
 * rendition for the box it is drawn in (`sizes`), never the original. The URLs are
 * content-addressed, so a revisit is served from the browser's cache without a request.
 */
export interface Thumbnails {
  small: string;
  large: string;
}

export function CreativeThumbnail({
  thumbnails,
  alt,
  sizes,
  eager = false,
  width,
  height,
  className = "size-full object-contain",
}: {
  thumbnails: Thumbnails;
  alt: string;
  /** The box's rendered width, as in the `sizes` attribute (e.g. "(min-width: 1024px) 240px, 50vw"). */
  sizes: string;
  eager?: boolean;
  width?: number | null;
  height?: number | null;
  className?: string;
}) {
  return (
    // A plain img: served by our API with the session, not by next/image.
    <img
      src={thumbnails.small}
      srcSet={`${thumbnails.small} 320w, ${thumbnails.large} 960w`}
      sizes={sizes}
      alt={alt}
      width={width ?? undefined}
      height={height ?? undefined}
      loading={eager ? "eager" : "lazy"}
      fetchPriority={eager ? "high" : undefined}
      decoding="async"
      draggable={false}
      className={className}
    />
  );
}
