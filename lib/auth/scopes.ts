/** The spec's 15 scope identifiers. A key created with scopes may only do what they name. */
export const SCOPES = [
  "upload",
  "publish",
  "edit",
  "comment",
  "review",
  "delete",
  "import",
  "share",
  "ads_view",
  "ads",
  "launch",
  "ads_delete",
  "moderate",
  "rules",
  "ai",
] as const;

export type Scope = (typeof SCOPES)[number];

export const SCOPE_DESCRIPTIONS: Record<Scope, string> = {
  upload: "Uploading creatives to the library",
  publish: "Publishing creatives to ad accounts (upload jobs)",
  edit: "Editing copy, arranging and annotating the canvas",
  comment: "Commenting on creatives",
  review: "Approving creatives and requesting changes",
  delete: "Deleting creatives and folders",
  import: "Importing from external file-storage providers",
  share: "Creating external review links",
  ads_view: "Viewing ads and results",
  ads: "Creating and editing ads",
  launch: "Activating ads and changing budgets (spends money)",
  ads_delete: "Deleting ads",
  moderate: "Moderating comments on published ads",
  rules: "Managing automation rules",
  ai: "The AI assistant (spends tokens)",
};

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}
