-- AlterTable
ALTER TABLE "review_links" ADD COLUMN     "showInternalComments" BOOLEAN NOT NULL DEFAULT false;
