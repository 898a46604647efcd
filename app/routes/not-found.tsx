import { data } from "react-router";
import { translate } from "#i18n/translate.ts";
import type { Route } from "./+types/not-found";
import { requestInfoContext } from "../context.ts";
import { NotFoundContent } from "../components/not-found-content.tsx";

export function loader({ context }: Route.LoaderArgs) {
  const { language } = context.get(requestInfoContext);
  return data({ title: translate(language, "meta.notFoundTitle") }, { status: 404 });
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: loaderData?.title ?? "404" },
  { name: "robots", content: "noindex" },
];

export default function NotFound() {
  return <NotFoundContent />;
}
