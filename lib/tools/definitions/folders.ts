import { z } from "zod";
import { createLibraryFolder, deleteFolder, FolderNameSchema, FolderSchema, listFolders, renameFolder } from "@/lib/folders/library-folders";
import { defineTool } from "../types";
import { idArg, pageArgs } from "./shared";

export const folderTools = [
  defineTool({
    name: "list_folders",
    title: "List folders",
    description:
      "Lists the library folders you can see, newest first. Pass parentId to list one level (null: the folders at the library root). Paginated: pass nextCursor back as cursor.",
    category: "folders",
    capability: "folders.list",
    readOnly: true,
    destructive: false,
    input: z.strictObject({
      parentId: idArg("Parent folder").nullable().optional().describe("Only the direct children of this folder; null for root folders"),
      ...pageArgs({ defaultLimit: 100, maxLimit: 200 }),
    }),
    output: z.object({ folders: z.array(FolderSchema), nextCursor: z.string().nullable() }),
    handler: listFolders,
  }),
  defineTool({
    name: "create_folder",
    title: "Create folder",
    description: "Creates a library folder at the root or inside parentId. Uploads can then be filed into it (folderId).",
    category: "folders",
    capability: "folders.write",
    readOnly: false,
    destructive: false,
    input: z.strictObject({
      name: FolderNameSchema,
      parentId: idArg("Parent folder").nullable().optional().describe("Create inside this folder; omitted or null: at the library root"),
    }),
    output: z.object({ folder: FolderSchema }),
    handler: createLibraryFolder,
  }),
  defineTool({
    name: "rename_folder",
    title: "Rename folder",
    description: "Renames a library folder.",
    category: "folders",
    capability: "folders.write",
    readOnly: false,
    destructive: false,
    input: z.strictObject({ id: idArg("Folder"), name: FolderNameSchema }),
    output: z.object({ folder: FolderSchema }),
    handler: renameFolder,
  }),
  defineTool({
    name: "delete_folder",
    title: "Delete folder",
    description:
      "Deletes an empty library folder and its empty subfolders. Refused (conflict) while it or a subfolder holds creatives or uploads, or grants a member their folder access. " +
      "Review links that share it or a subfolder are deleted with it (their guests get the link-not-available answer).",
    category: "folders",
    capability: "folders.delete",
    readOnly: false,
    destructive: true,
    input: z.strictObject({ id: idArg("Folder") }),
    output: z.object({ ok: z.literal(true) }),
    handler: deleteFolder,
  }),
];
