/**
 * Runs the S3 fake (s3rver) alone in this process, for benchmarks that must not share an event loop
 * with it: prints {"endpoint","bucket"} as one JSON line once listening, stops on SIGTERM.
 */
import { startS3Fake } from "../../tests/helpers/s3-fake";

const fake = await startS3Fake(process.argv[2]);
process.stdout.write(`${JSON.stringify({ endpoint: fake.endpoint, bucket: fake.bucket })}\n`);
process.on("SIGTERM", () => void fake.close().then(() => process.exit(0)));
