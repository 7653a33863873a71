/**
 * The words the dashboard shows for the catalog's enum values (objectives, calls to action): the
 * API keeps its stable ids, a person reads what they mean. Unknown values fall back to the id
 * with underscores as spaces, so a value added later still reads.
 */
const OBJECTIVE: Record<string, string> = {
  sales: "Sales",
  traffic: "Traffic to a website",
  leads: "Leads",
  awareness: "Brand awareness",
  engagement: "Engagement",
};

const CALL_TO_ACTION: Record<string, string> = {
  learn_more: "Learn more",
  shop_now: "Shop now",
  sign_up: "Sign up",
  download: "Download",
  contact_us: "Contact us",
  book_now: "Book now",
  get_offer: "Get offer",
  apply_now: "Apply now",
  subscribe: "Subscribe",
};

const fallback = (id: string) => {
  const words = id.replace(/_/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
};

export const objectiveWords = (id: string) => OBJECTIVE[id] ?? fallback(id);
export const callToActionWords = (id: string) => CALL_TO_ACTION[id] ?? fallback(id);
