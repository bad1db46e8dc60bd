// /audits has no page of its own: the list lives on the home page.
import { redirect } from 'next/navigation';

export default function AuditsIndexPage() {
  redirect('/');
}
